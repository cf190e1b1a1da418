"""Writers of files for people: the static site and HTML reports."""
