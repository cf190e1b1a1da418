"""The base layer: errors, check problems, text normalisation, rule labels. Imports nothing else of floorcall."""
