"""Our own documentation (one page per rule in rules/), shipped as the package ``app.docs``
(see app/resources.py)."""
