"""Bundled rubric versions (YAML data, loaded by ``rubric.load_rubric``)."""
