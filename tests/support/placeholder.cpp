namespace squawk::testing {}
