

#error "in b"
