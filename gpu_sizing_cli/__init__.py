"""gpu-sizing: the sales engineers' command line, a client of the API through gpu_sizing_client."""
