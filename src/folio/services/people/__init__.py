"""People and access: members, teams, single sign-on, the organization's settings."""
