"""The trained card classifier (``cards.onnx``) and its run record (``cards.json``), shipped as package data."""
