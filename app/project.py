"""Where the project itself is documented: the one address SARIF's
``tool.driver.informationUri`` names when no service is (a run without --base-url), and the
repository the README's pre-commit snippet pins."""

# The repository: its README documents the linter, the report and the rules (docs/rules/).
DOCUMENTATION_URL = "https://github.com/opencheckpoint/ocp-viewer"
