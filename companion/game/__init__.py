"""The game and the table: rules, scoring, the table session and its store; the standard library only."""
