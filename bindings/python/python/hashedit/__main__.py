"""``python -m hashedit``: the hashedit command line."""

from ._cli import main

main()
