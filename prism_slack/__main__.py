from prism_slack.cli import main

raise SystemExit(main())
