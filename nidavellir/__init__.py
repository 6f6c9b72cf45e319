"""nidavellir"""
