"""generated"""
