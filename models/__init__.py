"""The trained card classifier, two networks read together (``cards.onnx``, ``cards-2.onnx``), and
their run records (``cards.json``, ``cards-2.json``), shipped as package data."""
