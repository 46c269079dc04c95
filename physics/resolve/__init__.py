"""Contact responses of the billiards model: one module per contact class, each a named model."""
