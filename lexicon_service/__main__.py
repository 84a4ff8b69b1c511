from lexicon_service.cli import main

raise SystemExit(main())
