"""The kinds of parsed JSON value that code tests for, as tuples for `isinstance`.

A tuple rather than `dict | list`: the union is built again at every call and the test takes
three times as long, which the walks over every value of a document (the secret scan, the
schema's cascades, the page's anchors) and the pointers of thousands of findings pay for.
"""

CONTAINERS = (dict, list)  # an object or an array
NUMBERS = (int, float)  # what `json` makes of a number (and bool, an int)
SEQUENCES = (tuple, list)  # a path of tokens as the code builds one
