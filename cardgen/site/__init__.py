"""The download site: a static site of every built set (`cardgen site`, `cardgen serve`)."""
