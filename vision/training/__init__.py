"""Training the reader's two networks (the die finder and the face reader).

Not needed at run time: the shipped ONNX weights in ``vision/models`` are what the Pi
loads. The data pipeline (``photos``, ``trays``, ``samples``, ``augment``) is plain
numpy and OpenCV, so CI exercises it without the training framework; ``nets`` and
``fit`` need the ``train`` extra (torch). ``python -m dicetable.vision.training``
trains and exports both networks; ``--help`` lists the options.
"""
