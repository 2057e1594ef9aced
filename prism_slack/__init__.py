"""PRISM for Slack: grounded answers about a prospect, only from its audit report."""

__version__ = "0.1.0"
