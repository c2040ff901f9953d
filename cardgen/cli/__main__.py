"""`python -m cardgen.cli`: the same as the `cardgen` command."""
import sys

from cardgen.cli import main

sys.exit(main())
