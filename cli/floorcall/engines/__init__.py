"""Pure engines: walk, lookup, quiz, calc. Data in, data out; no printing, prompting or environment."""
