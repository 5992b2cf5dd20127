#pragma once
once_token
