"""Discord features: each package holds its cog, its views and its rendering."""
