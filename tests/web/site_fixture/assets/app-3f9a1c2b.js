console.log("credence-fixture-app");
