"""Sites: published docs sites, their sections, site spaces and adaptive content."""
