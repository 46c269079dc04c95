"""Environments of King of the Hill: the rules, the Gymnasium and PettingZoo environments."""
