int inc_line = __LINE__;
int inc_name = __FILE_NAME__;
