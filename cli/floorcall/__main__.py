from floorcall.commands.entry import main

raise SystemExit(main())
