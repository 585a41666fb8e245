// removed once the layer has sources
