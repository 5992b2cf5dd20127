#if 1
open_token
