"""`sleuth serve`: Sleuth in a browser, for the table (see web/app.py)."""
