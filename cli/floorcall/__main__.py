from floorcall.entry import main

raise SystemExit(main())
