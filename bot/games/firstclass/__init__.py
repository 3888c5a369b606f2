"""First Class's front-end parts: words, pictures, terminal menu, Discord UI."""
