"""`python -m cardgen`: the same as the `cardgen` command."""
from cardgen.launch import main

main()
