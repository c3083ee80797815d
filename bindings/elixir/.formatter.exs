[
  inputs: ["{mix,.formatter}.exs", "{config,lib,test,mix,bench}/**/*.{ex,exs}"]
]
