[
  inputs: ["{mix,.formatter}.exs", "{config,lib,test,mix}/**/*.{ex,exs}"]
]
