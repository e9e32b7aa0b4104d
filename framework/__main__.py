import sys
from framework.cli import main
sys.exit(main())
