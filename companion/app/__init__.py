"""The composition root: the command line, settings, and the wiring of camera, table, store, OLED and page."""
