"""Page templates (Jinja2), shipped as the package ``app.templates`` (see app/resources.py)."""
