"""Ticket to Ride's front-end parts: words, pictures, Discord UI."""
