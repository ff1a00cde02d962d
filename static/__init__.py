"""Stylesheets, our small script and vendored htmx, shipped as the package ``app.static`` (see
app/resources.py). Only the files listed in app/web/assets.py are served."""
