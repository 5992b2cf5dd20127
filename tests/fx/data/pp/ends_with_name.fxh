#define F(a) [a]
last F
