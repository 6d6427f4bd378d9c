"""The box on the table: the OLED, its screens and the three buttons (see README.md here)."""
