"""The trained card classifier, three networks read together (``cards.onnx``, ``cards-2.onnx``,
``cards-3.onnx``), and their run records (``cards*.json``), shipped as package data."""
