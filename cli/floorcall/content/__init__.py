"""Content: reading, validating and compiling rulebook/ and rulings/ (and the lookup index). Uses only core."""
