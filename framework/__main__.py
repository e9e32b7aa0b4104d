"""`python -m framework`: the command line (framework.cli)."""
import sys
from framework.cli import main
sys.exit(main())
