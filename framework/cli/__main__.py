"""`python -m framework.cli`: the same as the `plyspec` command."""
import sys

from framework.cli import main

sys.exit(main())
