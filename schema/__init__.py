"""The JSON Schema, shipped as the package ``app.schemas`` (see app/resources.py)."""
