"""Three matrices (figure 01): its view, its page, its Reproduce script."""
