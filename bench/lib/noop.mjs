// Does nothing: lets the runner harness prepare a job (env, files) without running the action.
