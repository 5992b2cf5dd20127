// mixed-case directory and file name, found as sub/nested.FXH
nested_token
