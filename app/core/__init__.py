"""What every part of the server builds on, with no feature of its own: the settings
(config.py), the injected clock (time.py), service errors (errors.py), JSON text of messages
(jsontext.py), the garbage collector's tuning (heap.py), named crash points for tests
(faults.py) and the sentences the server writes to people in their language (words/)."""
