// Deliberately misplaced: app/ui holds modules in folders.
#pragma once
