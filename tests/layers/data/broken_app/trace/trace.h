// Fixture for the layers test (trace includes nothing of SyncLab's).
#pragma once
