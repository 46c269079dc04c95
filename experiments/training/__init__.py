"""Training: Stable-Baselines3 (PPO, SAC, MaskablePPO) and RLlib trainers, self-play and the
league of opponents, the warm start by imitation, evaluation during training, and the search's
learned leaf value."""
