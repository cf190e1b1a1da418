"""What a user saves: SQLite stores (quiz progress). The only layer that writes user data."""
